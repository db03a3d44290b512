import type { Sentence } from '@/lib/shared/tokens';

/** A sentence whose filled-in names and addresses keep their own direction: each in <bdi>, the words around it the sentence's. */
export function SentenceText({ sentence }: { sentence: Sentence }) {
  return sentence.map((part, index) => (typeof part === 'string' ? part : <bdi key={index}>{part.isolate}</bdi>));
}
