/**
 * groq-js's parse and evaluate, typed as this code uses them. groq-js 2.0.0's .d.ts files import
 * ExprNode and evaluate's types from chunks (shared-*.d.ts, evaluator-*.d.ts) the package does not ship,
 * so as imported they are `any`; tsc says nothing because of skipLibCheck.
 */
import { evaluate, parse } from 'groq-js';

/** A parsed query (groq-js's ExprNode: every node has a `type`). */
export type GroqTree = { type: string };

export type GroqOptions = {
  dataset: unknown[];
  params?: Record<string, unknown>;
  timestamp?: Date;
  sanity?: { projectId: string; dataset: string };
};

export const parseGroq = parse as (query: string, options?: { params?: Record<string, unknown> }) => GroqTree;

export const evaluateGroq = evaluate as (tree: GroqTree, options: GroqOptions) => Promise<{ get(): Promise<unknown> }>;
