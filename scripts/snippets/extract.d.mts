export declare const SNIPPET_DOCS: string[];
export interface Snippet {
  doc: string;
  line: number;
  lang: "ts" | "tsx";
  stub: string | null;
  code: string;
  /** the quick start's file this block is (`<!-- snippet: file=PATH -->`) */
  file?: string;
}
export declare function snippetsOf(root: string, doc: string): Snippet[];
export declare function quickStartOf(
  root: string,
  doc: string,
): { files: { path: string; line: number; text: string }[]; runs: Record<string, string[]> };
