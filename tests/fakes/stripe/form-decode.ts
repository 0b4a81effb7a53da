// Decodes Stripe's form encoding (`line_items[0][price_data][unit_amount]=1500`, `expand[]=x`) into a tree of Maps.
import { invalidRequest } from "./errors";

/** A decoded value: a string leaf or a node of named children. Arrays stay nodes keyed "0", "1", … until a reader asks for a list. */
export type FormNode = string | FormMap;
export type FormMap = Map<string, FormNode>;

/** Splits `a[b][0]` into ["a", "b", "0"]; a key with stray brackets stays whole, so it later fails as an unknown parameter. */
export function splitKey(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const rest = key.slice(open);
  if (!/^(\[[^[\]]*\])+$/.test(rest)) return [key];
  return [key.slice(0, open), ...Array.from(rest.matchAll(/\[([^[\]]*)\]/g), (m) => m[1] ?? "")];
}

/** Writes a path back in Stripe's own notation, as error `param`s name it. */
export function joinKey(path: readonly string[]): string {
  const [head = "", ...rest] = path;
  return head + rest.map((segment) => `[${segment}]`).join("");
}

/** Decodes a body or query string; a later duplicate of a plain key wins, `[]` appends, mixing a value and children is a 400. */
export function decodeForm(params: URLSearchParams): FormMap {
  const root: FormMap = new Map();
  for (const [key, value] of params) {
    const path = splitKey(key);
    let node = root;
    for (let i = 0; i < path.length; i += 1) {
      // An empty segment is `[]`: the next free index of that list.
      const segment = path[i] === "" && i > 0 ? String(node.size) : (path[i] ?? "");
      const last = i === path.length - 1;
      const existing = node.get(segment);
      if (last) {
        if (existing instanceof Map)
          throw invalidRequest(`Invalid hash: ${joinKey(path.slice(0, i + 1))} was given both a value and nested parameters.`, joinKey(path.slice(0, i + 1)));
        node.set(segment, value);
      } else if (existing === undefined) {
        const child: FormMap = new Map();
        node.set(segment, child);
        node = child;
      } else if (existing instanceof Map) {
        node = existing;
      } else {
        throw invalidRequest(`Invalid hash: ${joinKey(path.slice(0, i + 1))} was given both a value and nested parameters.`, joinKey(path.slice(0, i + 1)));
      }
    }
  }
  return root;
}

/** The same parameters in any order give the same string, so idempotent replays compare what was asked, not how it was spelled. */
export function canonicalForm(params: URLSearchParams): string {
  const pairs = Array.from(params, ([key, value]) => `${encodeURIComponent(joinKey(splitKey(key)))}=${encodeURIComponent(value)}`);
  return pairs.sort().join("&");
}

/** A plain-object copy of decoded parameters, for the request log and test assertions. */
export interface FormObject {
  [key: string]: string | FormObject;
}

export function formToObject(node: FormMap): FormObject {
  const result: FormObject = {};
  for (const [key, value] of node) result[key] = typeof value === "string" ? value : formToObject(value);
  return result;
}
