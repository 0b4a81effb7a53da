import type { MailMessage } from "../../schema/wire/mail";

/** Encodes a header value as RFC 2047 UTF-8 base64 when it is not plain ASCII. */
function encodeHeader(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  return `=?UTF-8?B?${btoa(String.fromCharCode(...bytes))}?=`;
}

function base64Body(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** A complete RFC 5322 message (text, and HTML when given) for the send_email binding. */
export function buildMime(from: string, message: MailMessage, messageId: string, date: Date): string {
  const headers = [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Message-ID: <${messageId}@${from.split("@")[1] ?? "localhost"}>`,
    `Date: ${date.toUTCString()}`,
    "MIME-Version: 1.0",
  ];
  if (message.listUnsubscribe) headers.push(`List-Unsubscribe: <${message.listUnsubscribe}>`, "List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  if (!message.html) {
    return [...headers, "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64", "", base64Body(message.text)].join("\r\n");
  }
  const boundary = `b_${messageId.replace(/-/g, "")}`;
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Body(message.text),
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Body(message.html),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}
