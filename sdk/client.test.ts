import { describe, expect, it } from "vitest";
import { DataClient } from "./client";
import { AuthError, DataServiceError, FetchError, ListFormatError, ScopeError } from "./errors";
import { encodeFilters } from "./list";
import { MemoryTokenStorage, tokenStorageKeys as keys } from "./storage";
import { fakeFetch, json } from "./test-fakes";

const NOW = 1_763_700_000_000;
const REG = "3f0c2b1e-0000-4000-8000-000000000001";
const invalidToken = { "WWW-Authenticate": 'Bearer realm="data-api", error="invalid_token", error_description="The access token expired"' };

function setup() {
  const server = fakeFetch();
  const storage = new MemoryTokenStorage();
  storage.set(keys.accessToken, "at-0");
  storage.set(keys.refreshToken, "rt-0");
  storage.set(keys.expiresAt, String(NOW + 3_600_000));
  const client = new DataClient({
    baseUrl: "https://club.example",
    clientId: "app-1",
    redirectUri: "https://app.example/cb",
    storage,
    fetch: server.fetch,
    now: () => NOW,
  });
  return { server, storage, client };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("request", () => {
  it("sends the bearer token, JSON body and query, leaving out null and undefined", async () => {
    const { client, server } = setup();
    server.once("POST", "/data-api/Thing/", json({ ok: true }));
    await client.request("POST", "/data-api/Thing/", { body: { a: 1 }, query: { x: "1 2", y: null, z: undefined, n: 5 } });
    const [call] = server.calls;
    expect(call?.headers.get("Authorization")).toBe("Bearer at-0");
    expect(call?.headers.get("Content-Type")).toBe("application/json");
    expect(call?.headers.get("Accept")).toBe("application/json");
    expect(call?.body).toBe('{"a":1}');
    expect(call?.url.search).toBe("?x=1+2&n=5");
  });

  it("on a 401 invalid_token refreshes and retries once with the new token", async () => {
    const { client, server, storage } = setup();
    server.once("GET", "/data-api/me", json({ error: "invalid_token" }, { status: 401, headers: invalidToken }));
    server.once("POST", "/data-api/token", json({ access_token: "at-1", refresh_token: "rt-1", expires_in: 3600 }));
    server.once("GET", "/data-api/me", json({ uuid: "u1" }));
    const response = await client.request("GET", "/data-api/me");
    expect(await response.json()).toEqual({ uuid: "u1" });
    expect(server.calls.map((c) => `${c.method} ${c.url.pathname} ${c.headers.get("Authorization") ?? ""}`)).toEqual([
      "GET /data-api/me Bearer at-0",
      "POST /data-api/token ",
      "GET /data-api/me Bearer at-1",
    ]);
    expect(storage.get(keys.refreshToken)).toBe("rt-1");
  });

  it("retries only once: a second 401 is a FetchError", async () => {
    const { client, server } = setup();
    server.on("GET", "/data-api/me", json({ error: "invalid_token" }, { status: 401, statusText: "Unauthorized", headers: invalidToken }));
    server.on("POST", "/data-api/token", json({ access_token: "at-1", refresh_token: "rt-1", expires_in: 3600 }));
    const error = await failure(client.request("GET", "/data-api/me"));
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toBe("SDK Fetch Error: 401 Unauthorized");
    expect(server.callsTo("GET", "/data-api/me")).toHaveLength(2);
    expect(server.callsTo("POST", "/data-api/token")).toHaveLength(1);
  });

  it("on a 401 invalid_token whose refresh fails, clears all tokens and throws", async () => {
    const { client, server, storage } = setup();
    server.once("GET", "/data-api/me", json({ error: "invalid_token" }, { status: 401, headers: invalidToken }));
    server.once("POST", "/data-api/token", json({ error: "invalid_grant" }, { status: 400 }));
    const error = await failure(client.request("GET", "/data-api/me"));
    expect(error).toBeInstanceOf(AuthError);
    expect([storage.get(keys.accessToken), storage.get(keys.refreshToken), storage.get(keys.expiresAt)]).toEqual([null, null, null]);
    expect(server.callsTo("GET", "/data-api/me")).toHaveLength(1);
  });

  it("does not refresh on a 401 that is not invalid_token", async () => {
    const { client, server } = setup();
    server.once(
      "GET",
      "/data-api/me",
      json({ error: "invalid_request" }, { status: 401, statusText: "Unauthorized", headers: { "WWW-Authenticate": 'Bearer realm="data-api"' } }),
    );
    const error = await failure(client.request("GET", "/data-api/me"));
    expect((error as Error).message).toBe("SDK Fetch Error: 401 Unauthorized");
    expect(server.callsTo("POST", "/data-api/token")).toHaveLength(0);
  });

  it("turns a 403 insufficient_scope into a ScopeError listing the missing scopes", async () => {
    const { client, server } = setup();
    server.once(
      "GET",
      "/data-api/Registration/",
      json(
        { error: "insufficient_scope", error_description: "The token does not carry the scope this call needs", scope: "registrations races:r1" },
        { status: 403, headers: { "WWW-Authenticate": 'Bearer realm="data-api", error="insufficient_scope", scope="registrations races:r1"' } },
      ),
    );
    const error = await failure(client.request("GET", "/data-api/Registration/"));
    expect(error).toBeInstanceOf(ScopeError);
    expect((error as ScopeError).missing).toEqual(["registrations", "races:r1"]);
    expect((error as ScopeError).message).toBe("Insufficient scope; missing: registrations, races:r1");
  });

  it("reads the missing scopes from the challenge when the body has none", async () => {
    const { client, server } = setup();
    server.once(
      "GET",
      "/data-api/me",
      new Response("", { status: 403, headers: { "WWW-Authenticate": 'Bearer realm="data-api", error="insufficient_scope", scope="users"' } }),
    );
    const error = await failure(client.request("GET", "/data-api/me"));
    expect((error as ScopeError).missing).toEqual(["users"]);
  });

  it("throws FetchError 'SDK Fetch Error: status statusText' for any other failure, keeping status and body", async () => {
    const { client, server } = setup();
    server.once(
      "GET",
      `/data-api/Registration/${REG}`,
      json({ error: "not_found", message: "No such Registration" }, { status: 404, statusText: "Not Found" }),
    );
    const error = await failure(client.get("Registration", REG));
    expect(error).toBeInstanceOf(FetchError);
    expect(error).toBeInstanceOf(DataServiceError);
    expect((error as FetchError).message).toBe("SDK Fetch Error: 404 Not Found");
    expect((error as FetchError).status).toBe(404);
    expect((error as FetchError).body).toEqual({ error: "not_found", message: "No such Registration" });
  });

  it("keeps a non-JSON error body as text", async () => {
    const { client, server } = setup();
    server.once("GET", "/data-api/me", new Response("upstream down", { status: 502, statusText: "Bad Gateway" }));
    const error = (await failure(client.request("GET", "/data-api/me"))) as FetchError;
    expect(error.message).toBe("SDK Fetch Error: 502 Bad Gateway");
    expect(error.body).toBe("upstream down");
  });

  it("never sends the token to another origin", async () => {
    const { client, server } = setup();
    await expect(client.request("GET", "https://evil.example/data-api/me")).rejects.toThrow("Refusing to send the token to https://evil.example");
    expect(server.calls).toHaveLength(0);
  });
});

const listCsv =
  "uuid:string,name:string,open_time:time,is_approved:bool,tags:json\r\n" +
  '3f0c,"Spring 10K, 2027",1763700000000,true,"[""road""]"\r\n' +
  '9a1d,"",,false,\r\n';

describe("list", () => {
  it("asks for the list format with paging, sort and filters, and parses the reply", async () => {
    const { client, server } = setup();
    server.once(
      "GET",
      "/data-api/Registration/",
      new Response(listCsv, { headers: { "Content-Type": "text/x-z4-api-list; charset=utf-8", "X-Total-Count": "42" } }),
    );
    const result = await client.list("Registration", { limit: 50, offset: 100, sort: "-open_time", filters: ["is_approved=true", "name~spring, 10k"] });
    const [call] = server.calls;
    expect(call?.headers.get("Accept")).toBe("text/x-z4-api-list");
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      limit: "50",
      offset: "100",
      sort: "-open_time",
      filters: 'is_approved=true,"name~spring, 10k"',
    });
    expect(result.total).toBe(42);
    expect(result.columns.map((c) => `${c.name}:${c.type}`)).toEqual(["uuid:string", "name:string", "open_time:time", "is_approved:bool", "tags:json"]);
    expect(result.rows).toEqual([
      { uuid: "3f0c", name: "Spring 10K, 2027", open_time: 1763700000000, is_approved: true, tags: ["road"] },
      { uuid: "9a1d", name: "", open_time: null, is_approved: false, tags: null },
    ]);
    expect(result.csv).toBe(listCsv);
  });

  it("leaves out what was not given, so the server's defaults apply", async () => {
    const { client, server } = setup();
    server.once("GET", "/data-api/Registration/", new Response("uuid:string\r\n", { headers: { "Content-Type": "text/x-z4-api-list" } }));
    const result = await client.list("Registration");
    expect(server.calls[0]?.url.search).toBe("");
    expect(result).toMatchObject({ rows: [], total: null, columns: [{ name: "uuid", type: "string" }] });
  });

  it("passes a filter string as it is", async () => {
    const { client, server } = setup();
    server.once("GET", "/data-api/Registration/", new Response("uuid:string\r\n", { headers: { "Content-Type": "text/x-z4-api-list" } }));
    await client.list("Registration", { filters: 'is_approved=true,"name~a,b"' });
    expect(server.calls[0]?.url.searchParams.get("filters")).toBe('is_approved=true,"name~a,b"');
  });

  it("throws ListFormatError naming the content type when the reply is not the list format", async () => {
    const { client, server } = setup();
    server.once("GET", "/data-api/Registration/", json({ classname: "Registration", items: [] }));
    const error = await failure(client.list("Registration"));
    expect(error).toBeInstanceOf(ListFormatError);
    expect((error as ListFormatError).message).toBe("Expected a text/x-z4-api-list reply but received 'application/json'");
    expect((error as ListFormatError).contentType).toBe("application/json");
  });

  it("encodes filter conditions as one CSV record, quoting commas and quotes", () => {
    expect(encodeFilters(["a=1", "name~x,y", 'note~say "hi"', "b@1|2"])).toBe('a=1,"name~x,y","note~say ""hi""",b@1|2');
    expect(encodeFilters("raw,text")).toBe("raw,text");
  });
});

describe("entity calls", () => {
  it("get sends the parent as query parameters and returns the tree", async () => {
    const { client, server } = setup();
    server.once("GET", "/data-api/FormElement/fe-1", json({ classname: "FormElement", uuid: "fe-1", caption: "Size" }));
    const tree = await client.get("FormElement", "fe-1", { registration: REG });
    expect(tree).toEqual({ classname: "FormElement", uuid: "fe-1", caption: "Size" });
    expect(server.calls[0]?.url.searchParams.get("registration")).toBe(REG);
  });

  it("create PUTs the item and returns the uuid from the Location header", async () => {
    const { client, server } = setup();
    server.once(
      "PUT",
      "/data-api/Registration/",
      json({ classname: "Registration", uuid: "from-body" }, { status: 201, headers: { Location: `/data-api/Registration/${REG}` } }),
    );
    expect(await client.create("Registration", { name: "Spring 10K", club: "c1" })).toBe(REG);
    expect(JSON.parse(server.calls[0]?.body ?? "")).toEqual({ name: "Spring 10K", club: "c1" });
  });

  it("update POSTs only the changed fields with field_mtimes and the parent", async () => {
    const { client, server } = setup();
    const reply = { classname: "FormElement", uuid: "fe-1", changed: ["caption"], field_mtimes: { caption: NOW } };
    server.once("POST", "/data-api/FormElement/fe-1/", json(reply));
    expect(await client.update("FormElement", "fe-1", { caption: "T-shirt size" }, { fieldMtimes: { caption: 5 }, parent: { registration: REG } })).toEqual(
      reply,
    );
    expect(JSON.parse(server.calls[0]?.body ?? "")).toEqual({ caption: "T-shirt size", field_mtimes: { caption: 5 } });
    expect(server.calls[0]?.url.search).toBe(`?registration=${REG}`);
  });

  it("update surfaces a 409 stale write as a FetchError carrying the current values", async () => {
    const { client, server } = setup();
    server.once(
      "POST",
      `/data-api/Registration/${REG}/`,
      json({ error: "stale", fields: ["name"], current: { name: "Theirs" } }, { status: 409, statusText: "Conflict" }),
    );
    const error = (await failure(client.update("Registration", REG, { name: "Mine" }, { fieldMtimes: { name: 1 } }))) as FetchError;
    expect(error.status).toBe(409);
    expect(error.body).toMatchObject({ current: { name: "Theirs" } });
  });

  it("remove DELETEs with the parent", async () => {
    const { client, server } = setup();
    server.once("DELETE", "/data-api/FormElement/fe-1/", new Response(null, { status: 204 }));
    await client.remove("FormElement", "fe-1", { registration: REG });
    expect(server.calls[0]?.url.search).toBe(`?registration=${REG}`);
  });

  it("subscribe POSTs the connection id", async () => {
    const { client, server } = setup();
    server.once("POST", `/data-api/Registration/${REG}/subscribe`, json({ channel: `Registration/${REG}` }));
    expect(await client.subscribe("Registration", REG, "conn-1")).toEqual({ channel: `Registration/${REG}` });
    expect(server.calls[0]?.url.searchParams.get("conn")).toBe("conn-1");
  });

  it("signOut revokes the refresh token and forgets the tokens", async () => {
    const { client, server, storage } = setup();
    server.once("POST", "/data-api/revoke", new Response(null, { status: 200 }));
    await client.signOut();
    expect(new URLSearchParams(server.calls[0]?.body ?? "").get("token")).toBe("rt-0");
    expect(await client.isAuthenticated()).toBe(false);
    expect(storage.get(keys.accessToken)).toBeNull();
  });
});
