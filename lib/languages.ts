// Tesseract language lists as operators and callers write them: "spa", "spa+eng", "deu, eng".
// Names are tesseract's own (the traineddata file names: eng, chi_sim, script/Latin).

const NAME = /^[A-Za-z][A-Za-z0-9_]*(\/[A-Za-z][A-Za-z0-9_]*)?$/u;

/** Whether `name` has the form of a tesseract language name. */
export function isLanguageName(name: string): boolean {
  return NAME.test(name);
}

/** The languages of `text` in order, without repeats; undefined when empty or any name is malformed. */
export function parseLanguageList(text: string): string[] | undefined {
  const names = text.split(/[+,\s]+/u).filter(Boolean);
  if (names.length === 0 || names.some((n) => !isLanguageName(n))) return undefined;
  return [...new Set(names)];
}
