/** The data-service client: OAuth with PKCE, tokens, entity calls, the list format and the live socket. */
export {
  DataClient,
  type DataClientOptions,
  type EntityTree,
  type ParentParams,
  type QueryParams,
  type QueryValue,
  type RequestOptions,
  type UpdateOptions,
  type UpdateReply,
} from "./client";
export {
  AuthError,
  AuthorizationError,
  CREATE_ATTEMPT_FAILED,
  DataServiceError,
  FetchError,
  ListFormatError,
  NO_BEARER_TOKEN,
  ScopeError,
  SignInError,
  SOCKET_CONNECT_TIMEOUT,
  SocketError,
  TOKEN_REFRESH_FAILED,
  VERIFY_ATTEMPT_FAILED,
} from "./errors";
export { encodeFilters, readApiList, type ListFilters, type ListOptions, type ListResult } from "./list";
export { base64UrlEncode, codeChallengeS256, createPkcePair, type PkcePair, type SdkCrypto } from "./pkce";
export {
  createSignInAttempt,
  MISSING_ATTEMPT_USER,
  verifySignInAttempt,
  type CreateSignInAttemptInput,
  type SignInAttemptReply,
  type SignInProvider,
  type SignInVerification,
  type VerifyReply,
} from "./sign-in";
export {
  DataSocket,
  DEFAULT_CONNECT_TIMEOUT_MS,
  reconnectDelay,
  socketUrl,
  type DataFrame,
  type DataHandler,
  type DataSocketClient,
  type DataSocketOptions,
  type SocketState,
  type SocketTimers,
  type WebSocketConstructor,
  type WebSocketEventLike,
  type WebSocketLike,
} from "./socket";
export { defaultTokenStorage, LocalStorageTokenStorage, MemoryTokenStorage, tokenStorageKeys, type TokenStorage, type WebStorageLike } from "./storage";
export { expiryFrom, REFRESH_THRESHOLD_MS, TokenManager, type FetchLike, type TokenReply } from "./tokens";
export { ApiListError, API_LIST_CONTENT_TYPE, type ListColumn, type ListColumnType, type ListRow, type ListValue } from "../schema/wire/api-list";
export { DATA_SOCKET_PING_MS } from "../schema/wire/data-socket";
