/**
 * Large race frames travel deflated, compressed once by the shard that sends them rather than once per socket.
 * Per-socket permessage-deflate (off: compatibility flag `no_web_socket_compression`) cost each spectator
 * socket about 70 µs per frame, so a shard's work grew with its audience times the frame's size; a frame
 * packed once costs each socket only its send (decision 0039).
 *
 * On the wire: a text message is the frame's JSON; a binary message is the same JSON, UTF-8, deflated
 * (raw DEFLATE, RFC 1951). CompressionStream and DecompressionStream exist in Workers, browsers and Node 18+.
 */

/** Frames shorter than this go as text: deflating a row or two saves a few hundred bytes and costs more than the send. */
export const PACK_MIN_CHARS = 1_500;

/** The frame as it goes on the wire: the string itself when short, else its deflated bytes. */
export async function packFrame(frame: string): Promise<string | Uint8Array<ArrayBuffer>> {
  if (frame.length < PACK_MIN_CHARS) return frame;
  const stream = new Blob([frame]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The frame's JSON text from a message as received: a string as it is, binary data inflated. */
export async function unpackFrame(data: unknown): Promise<string | null> {
  if (typeof data === "string") return data;
  let blob: Blob;
  if (data instanceof Blob) blob = data;
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) blob = new Blob([data as ArrayBuffer]);
  else return null;
  try {
    return await new Response(blob.stream().pipeThrough(new DecompressionStream("deflate-raw"))).text();
  } catch {
    // Not deflate data: the frame is dropped, as unreadable JSON is.
    return null;
  }
}
