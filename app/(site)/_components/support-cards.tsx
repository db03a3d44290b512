'use client';

import { useRef, useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';

import type { SupportPageView } from '@/lib/content/views';

import { RequestDialog, type RequestFormCopy } from './request-dialog';

/** A card that opens a request form (the TypeGen `SupportCard` is the schema's object it comes from). */
type RequestCard = SupportPageView['cards'][number];

function Card({ card, copy }: { card: RequestCard; copy: RequestFormCopy }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // A fresh key at every opening gives it an idle, empty form. At the opening, not at the close: the close
  // event comes a task after Escape has given the card its focus back, so an Enter pressed at once could
  // open the old dialog, which the re-render for the close then replaced with a closed one.
  const [generation, setGeneration] = useState(0);
  const dialogId = `request-${card.requestType}`;

  function open(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    // Rendered now, so that the ref holds the new dialog before it is shown.
    flushSync(() => setGeneration((value) => value + 1));
    dialog.current?.showModal();
  }

  return (
    <>
      <a
        {...card.lang}
        href={`#${dialogId}`}
        onClick={open}
        aria-haspopup="dialog"
        className="group block rounded-2xl border border-gray-200 bg-white p-6 shadow-sm transition-[border-color,box-shadow] hover:border-brand-600 hover:shadow-md"
      >
        <h2 className="text-lg font-semibold text-ink group-hover:text-brand-700">{card.title}</h2>
        <p className="mt-2 text-muted">{card.text}</p>
      </a>
      <RequestDialog
        key={generation}
        ref={dialog}
        dialogId={dialogId}
        title={card.modalTitle}
        titleLang={card.lang}
        type={card.requestType}
        copy={copy}
      />
    </>
  );
}

export function SupportCards({ cards, copy }: { cards: RequestCard[]; copy: RequestFormCopy }) {
  return cards.map((card) => <Card key={card._key} card={card} copy={copy} />);
}
