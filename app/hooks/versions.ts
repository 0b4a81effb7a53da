/** Whether version `a` is not after `b`, when both are the server's numbers (never for other strings). */
export function notAfter(a: string, b: string): boolean {
  return /^\d+$/.test(a) && /^\d+$/.test(b) && Number(a) <= Number(b);
}
