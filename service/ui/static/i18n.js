// Texts for people in the page's language. Every string a person reads goes through t("English text", {name: ...});
// `{name}` placeholders are filled from the second argument.

export function t(message, params = {}) {
  return message.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
