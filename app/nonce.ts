import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered. On the server it is the response's nonce; in
 * the browser it is empty, as browsers hide nonce attributes after load (so hydration sees no difference).
 */
export const NonceContext = createContext("");

export const useNonce = () => useContext(NonceContext);
