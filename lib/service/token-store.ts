/**
 * Where the OAuth tokens live. Why a store at all: the contract's Authentication section keeps a
 * client-side expiry timestamp, and the public docs note the service's own server SDK keeps its
 * tokens in the merchant's database, so several server instances share one login instead of
 * each logging in (and each rotating the refresh token under the others).
 */
export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  /** From the token response; half of the webhook secret (contract: Authentication 5). */
  userId: string;
  /** From the token response; the other half, and the SDK's merchantId. */
  merchantId: string;
  /** Space-separated scopes granted (or requested, when the answer does not say). */
  scope: string;
  /** When the access token stops working, computed by us at issue time. */
  accessExpiresAt: Date;
}

export interface TokenStore {
  load(): Promise<StoredTokens | null>;
  save(tokens: StoredTokens): Promise<void>;
  clear(): Promise<void>;
}

/** For tests and single-process scripts. */
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
