import { useEffect, useRef } from 'react';
import { isObjectInputProps, set, unset, type FormPatch, type InputProps, type ObjectInputProps } from 'sanity';

import { isLanguageTag, tagProposal } from '@/lib/shared/languages';
import { SITE_LANGUAGE_TYPE } from '@/schemas/languages';

/**
 * A language of Site settings: typing its tag fills in what Intl knows of the language, its own name
 * (unless the editor wrote one) and its direction. Set for the Studio's inputs rather than in the schema,
 * which the server loads too, where a module with React's hooks is refused.
 */
function SiteLanguageInput(props: ObjectInputProps) {
  const { value, focusPath, onChange, renderDefault } = props;
  const tag: unknown = value?.tag;
  // The last tag typed in full: a name proposed for it is still a proposal, not the editor's words.
  const typed = useRef(tag);
  useEffect(() => {
    if (typeof tag !== 'string' || !isLanguageTag(tag) || tag === typed.current) return;
    const previous = typed.current;
    typed.current = tag;
    // Only in the Studio the tag is typed in: every other one open on the document sees the same change.
    if (focusPath.at(-1) !== 'tag') return;
    const { name, direction } = tagProposal(value ?? {}, typeof previous === 'string' ? previous : undefined);
    const patches: FormPatch[] = [];
    if (name !== undefined) patches.push(name === null ? unset(['name']) : set(name, ['name']));
    if (direction) patches.push(set(direction, ['direction']));
    if (patches.length > 0) onChange(patches);
  }, [tag, value, focusPath, onChange]);
  return renderDefault(props);
}

/** The Studio's inputs: a language of Site settings gets its own, every other the default. */
export function StudioInput(props: InputProps) {
  return isObjectInputProps(props) && props.schemaType.name === SITE_LANGUAGE_TYPE ? (
    <SiteLanguageInput {...props} />
  ) : (
    props.renderDefault(props)
  );
}
