// Types of form-post.mjs for the TypeScript files that import it (tests/e2e/faults.spec.ts).
import type { Agent } from 'node:http';

export const FORM_ACTION: string;
export type Answer = { status?: number; text?: string; error?: string; ms: number };
export function send(
  agent: Agent | undefined,
  url: string,
  options?: { method?: string; headers?: Record<string, string | number>; body?: Buffer; timeoutMs?: number },
): Promise<Answer>;
export type Controls = Array<[string, string]>;
export function loadForm(origin: string): Promise<Controls>;
export type Outcome = 'accepted' | 'failed' | `error: ${string}`;
export function postForm(
  agent: Agent | undefined,
  origin: string,
  controls: Controls,
  fields: { email: string; subject: string; message: string },
  options?: { address?: string; timeoutMs?: number },
): Promise<{ outcome: Outcome; ms: number }>;
