export declare const SNIPPET_DOCS: string[];
export interface Snippet {
  doc: string;
  line: number;
  lang: "ts" | "tsx";
  stub: string | null;
  code: string;
}
export declare function snippetsOf(root: string, doc: string): Snippet[];
