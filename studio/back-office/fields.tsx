import { Box, Button, Flex, Select, Stack, Text, TextInput } from '@sanity/ui';
import { useId, useState, type FormEvent, type ReactNode } from 'react';

import { MAX_ADDRESS } from '@/lib/shared/back-office';

/** The tool's form controls, each with a visible label tied to it, so every one has its name. */

function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <Text as="label" htmlFor={htmlFor} size={1} weight="medium">
      {children}
    </Text>
  );
}

export type Choice = { value: string; title: string };

/** A labelled drop-down with "All" first: choosing it clears the filter. */
export function ChoiceField(props: { label: string; all: string; choices: Choice[]; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <Stack gap={2}>
      <Label htmlFor={id}>{props.label}</Label>
      <Select id={id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value)}>
        <option value="">{props.all}</option>
        {props.choices.map(({ value, title }) => (
          <option key={value} value={value}>
            {title}
          </option>
        ))}
      </Select>
    </Stack>
  );
}

type AddressFormProps = {
  label: string;
  button: string;
  busy: boolean;
  onSubmit: (address: string) => void;
  /** A search takes the start of an address; a lookup a whole one. */
  search?: boolean;
  hint?: string;
  formLabel?: string;
};

/**
 * One address and a button, as a form: Enter submits. The browser's own checks are off so that every
 * refusal is worded by the shared rules (api.ts), in the Studio's language, and announced the same way.
 */
export function AddressForm({ label, button, busy, onSubmit, search, hint, formLabel }: AddressFormProps) {
  const id = useId();
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(value.trim());
  };
  return (
    <form noValidate role={search ? 'search' : undefined} aria-label={formLabel} onSubmit={submit}>
      <Stack gap={2}>
        <Label htmlFor={id}>{label}</Label>
        {hint ? (
          <Text size={1} muted id={`${id}-hint`}>
            {hint}
          </Text>
        ) : null}
        <Flex gap={2} align="flex-end" wrap="wrap">
          <Box flex={1} style={{ minWidth: '16rem' }}>
            <TextInput
              id={id}
              type={search ? 'search' : 'email'}
              autoComplete="off"
              spellCheck={false}
              maxLength={MAX_ADDRESS}
              aria-describedby={hint ? `${id}-hint` : undefined}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
            />
          </Box>
          <Button type="submit" tone="primary" text={button} loading={busy} disabled={busy} />
        </Flex>
      </Stack>
    </form>
  );
}
