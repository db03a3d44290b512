import { useCallback, useEffect, useRef, useState } from 'react';

import type { Page } from '@/lib/shared/back-office';

/**
 * The three ways the tool waits for the server, each keeping only the newest answer: a newer call made
 * while an older one runs wins, so a slow answer never overwrites a fresh one.
 */

export type Loaded<T> = { value: T | undefined; error: unknown; busy: boolean };

/** `load`'s answer, asked when the component mounts and whenever `load` changes (callers memoize it). */
export function useLoad<T>(load: () => Promise<T>): Loaded<T> & { reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ value: undefined, error: null, busy: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setState({ value, error: null, busy: false }),
      (error: unknown) => live && setState({ value: undefined, error, busy: false }),
    );
    return () => {
      live = false;
    };
  }, [load, round]);
  const reload = useCallback(() => {
    setState((previous) => ({ ...previous, busy: true }));
    setRound((n) => n + 1);
  }, []);
  return { ...state, reload };
}

/** An action the editor starts (a search, a mark, an erase): its result or failure, and whether it runs. */
export function useAction<A extends unknown[], R>(run: (...args: A) => Promise<R>) {
  const [state, setState] = useState<Loaded<R>>({ value: undefined, error: null, busy: false });
  const latest = useRef(0);
  const start = async (...args: A): Promise<R | undefined> => {
    const mine = ++latest.current;
    setState((previous) => ({ ...previous, error: null, busy: true }));
    try {
      const value = await run(...args);
      if (mine === latest.current) setState({ value, error: null, busy: false });
      return value;
    } catch (error) {
      if (mine === latest.current) setState({ value: undefined, error, busy: false });
      return undefined;
    }
  };
  const clear = () => {
    latest.current += 1;
    setState({ value: undefined, error: null, busy: false });
  };
  return { ...state, start, clear };
}

export type Paged<T> = { rows: T[] | null; next: string | null; error: unknown; busy: boolean };

/**
 * A keyset-paged list: the first page on mount, then each "Load more" with the cursor the last page gave.
 * New filters make a new list (the caller keys the component by them), so a list never mixes two queries.
 */
export function usePaged<T>(load: (cursor: string | null) => Promise<Page<T>>) {
  const [state, setState] = useState<Paged<T>>({ rows: null, next: null, error: null, busy: true });
  const fetchPage = useCallback(
    (cursor: string | null) =>
      load(cursor).then(
        (page) =>
          setState((previous) => ({
            rows: [...(cursor ? (previous.rows ?? []) : []), ...page.rows],
            next: page.next,
            error: null,
            busy: false,
          })),
        (error: unknown) => setState((previous) => ({ ...previous, error, busy: false })),
      ),
    [load],
  );
  useEffect(() => {
    void fetchPage(null);
  }, [fetchPage]);
  const more = () => {
    if (!state.next || state.busy) return;
    setState((previous) => ({ ...previous, error: null, busy: true }));
    void fetchPage(state.next);
  };
  /** One row changed on the server (a request marked answered): the list shows it as it now is. */
  const update = (change: (row: T) => T) => setState((previous) => ({ ...previous, rows: previous.rows?.map(change) ?? null }));
  return { ...state, more, update };
}
