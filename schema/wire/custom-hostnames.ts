/**
 * Cloudflare's Custom Hostnames API (Cloudflare for SaaS) on the wire: the v4 envelope
 * `{success, errors, messages, result}` and the custom hostname object, as far as the platform reads it.
 * The adapter (workers/services/custom-hostnames.ts) parses every answer with these; the local fake
 * (tests/fakes/cloudflare) parses every request body with `createCustomHostnameBodySchema`.
 */
import * as z from "zod";

export const cloudflareMessageSchema = z.object({ code: z.number().int(), message: z.string() });

/** Any answer of the v4 API: `result` is read only when `success` is true. */
export const cloudflareEnvelopeSchema = z.object({
  success: z.boolean(),
  errors: z.array(cloudflareMessageSchema).default([]),
  messages: z.array(z.unknown()).default([]),
  result: z.unknown().optional(),
});

export const validationRecordSchema = z.object({
  txt_name: z.string().optional(),
  txt_value: z.string().optional(),
  http_url: z.string().optional(),
  http_body: z.string().optional(),
  emails: z.array(z.string()).optional(),
});

export const customHostnameSchema = z.object({
  id: z.string().min(1).max(64),
  hostname: z.string().min(1).max(255),
  // Cloudflare adds statuses over time; unknown ones are kept as text and read as "waiting" (core/sites/domain-status.ts).
  status: z.string().min(1).max(64).default("pending"),
  ssl: z
    .object({
      status: z.string().max(64).optional(),
      method: z.string().optional(),
      type: z.string().optional(),
      validation_records: z.array(validationRecordSchema).optional(),
      validation_errors: z.array(z.object({ message: z.string().optional() })).optional(),
    })
    .optional(),
  ownership_verification: z.object({ type: z.string().optional(), name: z.string().optional(), value: z.string().optional() }).optional(),
  verification_errors: z.array(z.unknown()).optional(),
  created_at: z.string().optional(),
});

export type CustomHostname = z.infer<typeof customHostnameSchema>;

/** The body of `POST /zones/{zone_id}/custom_hostnames` the platform sends, and the fake accepts. */
export const createCustomHostnameBodySchema = z.object({
  hostname: z.string().min(1).max(255),
  ssl: z.object({
    method: z.enum(["http", "txt", "email"]),
    type: z.literal("dv"),
    settings: z.object({ min_tls_version: z.enum(["1.0", "1.1", "1.2", "1.3"]).optional() }).optional(),
    bundle_method: z.enum(["ubiquitous", "optimal", "force"]).optional(),
    wildcard: z.boolean().optional(),
  }),
  custom_metadata: z.record(z.string(), z.string()).optional(),
});

export type CreateCustomHostnameBody = z.infer<typeof createCustomHostnameBodySchema>;
