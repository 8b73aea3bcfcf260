export interface Stub {
  before: string;
  after?: string;
  files?: Record<string, string>;
}
export declare const STUBS: Record<string, Stub>;
