import { afterEach, describe, expect, it } from "vitest";
import { CustomHostnameError, customHostnameGateway, routeCloudflareTo } from "../../../workers/services/custom-hostnames";
import { createCloudflareFake, STAGES, type FakeHostname } from "./custom-hostnames";

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const TOKEN = "unit-token";
const BASE = "http://127.0.0.1:12287/client/v4";
const env = { CLOUDFLARE_API_BASE: BASE, CLOUDFLARE_ZONE_ID: ZONE, CLOUDFLARE_API_TOKEN: TOKEN };

function setUp(pollsPerStep = 1, onChange?: (h: FakeHostname[]) => void) {
  const fake = createCloudflareFake({ zoneId: ZONE, token: TOKEN, pollsPerStep, onChange });
  routeCloudflareTo(fake.fetch);
  return { fake, gateway: customHostnameGateway(env)! };
}

const call = (fake: ReturnType<typeof setUp>["fake"], path: string, init: RequestInit = {}) =>
  fake.fetch(`${BASE}/zones/${ZONE}/custom_hostnames${path}`, init);

afterEach(() => routeCloudflareTo(null));

describe("the Cloudflare custom hostnames fake, through the adapter", () => {
  it("registers a hostname and moves it one step per poll from pending to live", async () => {
    const { gateway, fake } = setUp();
    const created = await gateway.create("club.example.org");
    expect(created).toMatchObject({ hostname: "club.example.org", status: "pending", sslStatus: "initializing" });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.records).toEqual([
      { type: "TXT", name: "_cf-custom-hostname.club.example.org", value: fake.hostnames.get("club.example.org")!.ownershipValue },
    ]);
    expect(created.errors).toEqual(["custom hostname does not CNAME to this zone."]);
    const seen = [];
    for (let i = 0; i < STAGES.length; i++) seen.push((await gateway.get(created.id))!.sslStatus);
    expect(seen).toEqual(["pending_validation", "pending_issuance", "pending_deployment", "active", "active"]);
    expect(await gateway.get(created.id)).toMatchObject({ status: "active", errors: [] });
    expect(await gateway.findByHostname("club.example.org")).toMatchObject({ id: created.id });
    expect(await gateway.findByHostname("other.example.org")).toBeNull();
  });

  it("refuses a second registration of the same hostname with Cloudflare's duplicate error", async () => {
    const { gateway } = setUp();
    await gateway.create("dup.example.org");
    const error = await gateway.create("dup.example.org").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CustomHostnameError);
    expect(error).toMatchObject({ status: 409, code: 1406, message: "Duplicate custom hostname found.", duplicate: true });
  });

  it("checks the token, the zone and the body as Cloudflare does, in its envelope", async () => {
    const { fake } = setUp();
    const noToken = await call(fake, "");
    expect(noToken.status).toBe(400);
    expect(await noToken.json()).toEqual({ success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [], result: null });
    expect((await call(fake, "", { headers: { Authorization: "Bearer wrong" } })).status).toBe(403);
    const otherZone = await fake.fetch(`${BASE}/zones/0000/custom_hostnames`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(otherZone.status).toBe(404);
    const badBody = await call(fake, "", {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ hostname: "x.example.org", ssl: { type: "dv" } }),
    });
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain("ssl.method");
    const badName = await call(fake, "", {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ hostname: "Not A Host", ssl: { method: "http", type: "dv" } }),
    });
    expect(badName.status).toBe(400);
    expect((await call(fake, "/nope", { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it("deletes, and the adapter reads a hostname Cloudflare no longer has as gone", async () => {
    const changes: number[] = [];
    const { gateway, fake } = setUp(0, (all) => changes.push(all.length));
    const created = await gateway.create("bye.example.org");
    await gateway.remove(created.id);
    await gateway.remove(created.id);
    expect(await gateway.get(created.id)).toBeNull();
    expect(fake.hostnames.size).toBe(0);
    expect(changes).toEqual([1, 0]);
  });

  it("turns failures into errors with a reason: Cloudflare's words, a page that is not its API, no answer", async () => {
    const { gateway, fake } = setUp();
    fake.failNext(500, { code: 1000, message: "Internal error" });
    await expect(gateway.create("a.example.org")).rejects.toMatchObject({ status: 500, code: 1000, message: "Internal error" });
    fake.failNext(502, { html: true });
    await expect(gateway.create("a.example.org")).rejects.toMatchObject({
      status: 502,
      message: "Cloudflare answered 502 with something other than its API's reply.",
    });
    routeCloudflareTo(() => Promise.reject(new TypeError("fetch failed")));
    await expect(gateway.create("a.example.org")).rejects.toMatchObject({ status: 0, message: "Cloudflare could not be reached." });
    routeCloudflareTo(() => Promise.resolve(Response.json({ success: true, errors: [], messages: [], result: { hostname: 5 } })));
    await expect(gateway.create("a.example.org")).rejects.toMatchObject({ message: "Cloudflare's reply was not the custom hostname it should be." });
  });

  it("is off without a zone or a token", () => {
    expect(customHostnameGateway({ ...env, CLOUDFLARE_API_TOKEN: undefined })).toBeNull();
    expect(customHostnameGateway({ ...env, CLOUDFLARE_ZONE_ID: "" })).toBeNull();
  });
});
