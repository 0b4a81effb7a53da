/**
 * The Worker's deflate for PDF content streams (core/print/pdf.ts): zlib's, from the runtime's node:zlib
 * (nodejs_compat), synchronous so the PDF writer in core stays plain code. A 27,000-racer results PDF falls
 * from 16 MB to a fraction of it.
 */
import { deflateSync } from "node:zlib";
import type { Deflate } from "../../core/print/pdf";

export const deflatePdf: Deflate = (bytes) => deflateSync(bytes, { level: 6 });
