import type { StoredTokens, TokenStore } from "../shop-ports";

/** Tests only: a TokenStore in memory (production keeps tokens in the shop's database). */
export class MemoryTokenStore implements TokenStore {
  private tokens: StoredTokens | null;

  constructor(initial: StoredTokens | null = null) {
    this.tokens = initial ? { ...initial } : null;
  }

  async load() {
    return this.tokens ? { ...this.tokens } : null;
  }

  async save(tokens: StoredTokens) {
    this.tokens = { ...tokens };
  }

  async clear() {
    this.tokens = null;
  }
}
