// API keys: creation (shown once), hashed storage, inbox scopes, revocation, authentication.

export {
  type ApiKeyInfo,
  authenticate,
  type CreatedKey,
  createKey,
  ensureKeyTable,
  listKeys,
  type Principal,
  principalOfKeyId,
  revokeKey,
} from './keys.js';
