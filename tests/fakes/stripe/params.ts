// Typed reads of decoded form parameters that fail with Stripe's own 400s (parameter_missing, parameter_unknown, …).
import { invalidRequest, missingParam } from "./errors";
import { joinKey, type FormMap, type FormNode } from "./form-decode";

const METADATA_MAX_KEYS = 50;
const METADATA_KEY_MAX = 40;
const METADATA_VALUE_MAX = 500;

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** One level of parameters; `path` is where it sits, so errors name the full `a[0][b]` param. */
export class Params {
  constructor(
    private readonly node: FormMap,
    private readonly path: readonly string[] = [],
  ) {}

  static root(node: FormMap): Params {
    return new Params(node);
  }

  name(key: string): string {
    return joinKey([...this.path, key]);
  }

  has(key: string): boolean {
    const value = this.node.get(key);
    // Stripe reads an empty value as "not given" (it is how a client unsets a field).
    return value !== undefined && value !== "";
  }

  /** Stripe rejects any parameter it does not know; a typo in the app should fail here as it would against the real API. */
  rejectUnknown(allowed: readonly string[]): void {
    for (const key of this.node.keys()) {
      if (!allowed.includes(key)) throw invalidRequest(`Received unknown parameter: ${this.name(key)}`, this.name(key), "parameter_unknown");
    }
  }

  private leaf(key: string): string | undefined {
    const value = this.node.get(key);
    if (value === undefined || value === "") return undefined;
    if (typeof value !== "string")
      throw invalidRequest(`Invalid ${this.name(key)}: expected a value, got nested parameters.`, this.name(key), "parameter_invalid_string");
    return value;
  }

  string(key: string, options: { required: true; max?: number }): string;
  string(key: string, options?: { required?: boolean; max?: number }): string | undefined;
  string(key: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.leaf(key);
    if (value === undefined) {
      if (options.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (options.max !== undefined && value.length > options.max) {
      throw invalidRequest(`Invalid string: ${value.slice(0, 20)}...; must be at most ${options.max} characters`, this.name(key), "parameter_invalid_string");
    }
    return value;
  }

  integer(key: string, options: { required: true; min?: number; max?: number }): number;
  integer(key: string, options?: { required?: boolean; min?: number; max?: number }): number | undefined;
  integer(key: string, options: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const value = this.leaf(key);
    if (value === undefined) {
      if (options.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (!/^-?\d+$/.test(value)) throw invalidRequest(`Invalid integer: ${value}`, this.name(key), "parameter_invalid_integer");
    const number = Number(value);
    if (options.min !== undefined && number < options.min) {
      throw invalidRequest(`This value must be greater than or equal to ${options.min}.`, this.name(key), "parameter_invalid_integer");
    }
    if (options.max !== undefined && number > options.max) {
      throw invalidRequest(`This value must be less than or equal to ${options.max}.`, this.name(key), "parameter_invalid_integer");
    }
    return number;
  }

  boolean(key: string): boolean | undefined {
    const value = this.leaf(key);
    if (value === undefined) return undefined;
    if (value !== "true" && value !== "false") throw invalidRequest(`Invalid boolean: ${value}`, this.name(key), "parameter_invalid_boolean");
    return value === "true";
  }

  oneOf<T extends string>(key: string, values: readonly T[], options: { required?: boolean } = {}): T | undefined {
    const value = this.leaf(key);
    if (value === undefined) {
      if (options.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (!(values as readonly string[]).includes(value)) throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${values.join(", ")}`, this.name(key));
    return value as T;
  }

  url(key: string, options: { required: true }): string;
  url(key: string, options?: { required?: boolean }): string | undefined;
  url(key: string, options: { required?: boolean } = {}): string | undefined {
    const value = this.string(key, { required: options.required, max: 5000 });
    if (value === undefined) return undefined;
    // `{CHECKOUT_SESSION_ID}` is a template Stripe fills in later, so the URL is checked without it.
    if (!isHttpUrl(value.replaceAll("{CHECKOUT_SESSION_ID}", "x"))) {
      throw invalidRequest("Not a valid URL", this.name(key), "url_invalid");
    }
    return value;
  }

  currency(key: string): string {
    const value = this.string(key, { required: true });
    if (!/^[a-z]{3}$/i.test(value)) throw invalidRequest(`Invalid currency: ${value.toLowerCase()}.`, this.name(key), "parameter_invalid_string");
    return value.toLowerCase();
  }

  child(key: string, options: { required: true }): Params;
  child(key: string, options?: { required?: boolean }): Params | undefined;
  child(key: string, options: { required?: boolean } = {}): Params | undefined {
    const value = this.node.get(key);
    if (value === undefined || value === "") {
      if (options.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof value === "string") throw invalidRequest(`Invalid object`, this.name(key), "parameter_invalid_hash");
    return new Params(value, [...this.path, key]);
  }

  /** A list sent as `key[0]…`, `key[1]…` (or `key[]`); the indices only order it, as in Stripe. */
  list(key: string, options: { required?: boolean } = {}): Params[] {
    const nodes = this.listNodes(key, options);
    return nodes.map(([index, node]) => {
      if (typeof node === "string") throw invalidRequest(`Invalid object`, joinKey([...this.path, key, index]), "parameter_invalid_hash");
      return new Params(node, [...this.path, key, index]);
    });
  }

  stringList(key: string): string[] {
    return this.listNodes(key, {}).map(([index, node]) => {
      if (typeof node !== "string") throw invalidRequest(`Invalid string`, joinKey([...this.path, key, index]), "parameter_invalid_string");
      return node;
    });
  }

  private listNodes(key: string, options: { required?: boolean }): Array<[string, FormNode]> {
    const value = this.node.get(key);
    if (value === undefined || value === "" || (value instanceof Map && value.size === 0)) {
      if (options.required) throw missingParam(this.name(key));
      return [];
    }
    if (typeof value === "string") throw invalidRequest(`Invalid array`, this.name(key), "parameter_invalid_array");
    const entries = Array.from(value.entries());
    for (const [index] of entries) {
      if (!/^\d+$/.test(index)) throw invalidRequest(`Invalid array`, this.name(key), "parameter_invalid_array");
    }
    return entries.sort(([a], [b]) => Number(a) - Number(b));
  }

  /** Metadata as Stripe limits it: at most 50 string keys of 40 characters with values of 500. */
  metadata(key: string): Record<string, string> {
    const value = this.node.get(key);
    if (value === undefined || value === "") return {};
    if (typeof value === "string") throw invalidRequest(`Invalid object`, this.name(key), "parameter_invalid_hash");
    const metadata: Record<string, string> = {};
    for (const [name, entry] of value) {
      const param = joinKey([...this.path, key, name]);
      if (typeof entry !== "string") throw invalidRequest(`Invalid value for ${param}: metadata values must be strings.`, param, "parameter_invalid_string");
      if (name.length > METADATA_KEY_MAX) throw invalidRequest(`Metadata keys can have up to ${METADATA_KEY_MAX} characters.`, param);
      if (entry.length > METADATA_VALUE_MAX)
        throw invalidRequest(
          `Metadata values can have up to ${METADATA_VALUE_MAX} characters, but you passed in a value that is ${entry.length} characters.`,
          param,
        );
      // An empty value unsets a key, so it is simply not stored.
      if (entry !== "") metadata[name] = entry;
    }
    if (Object.keys(metadata).length > METADATA_MAX_KEYS) throw invalidRequest(`You can have up to ${METADATA_MAX_KEYS} metadata keys.`, this.name(key));
    return metadata;
  }
}
