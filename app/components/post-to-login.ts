/**
 * Hands a verified sign-in's token to `{host}/_auth/login` with a real form post, so the session cookie is
 * set by that host itself (it may be another club's domain).
 */
export function postToLogin(host: string, token: string, goto: string | null, role: string | null = null): void {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = `${location.protocol}//${host}${location.port ? `:${location.port}` : ""}/_auth/login`;
  for (const [name, value] of Object.entries({ token, goto: goto ?? "", role: role ?? "" })) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
