// Unicode "tag" characters (U+E0020–U+E007E) mirror printable ASCII and render as nothing, yet
// several models read them: instructions hidden this way ("ASCII smuggling",
// https://embracethered.com/blog/posts/2024/hiding-and-finding-text-with-unicode-tags/) are shown
// as the text they spell, so the model, the screening and the person see the same thing.
const tagRun = /(?:\udb40[\udc00-\udc7f])+/g;

/** Turns runs of invisible tag characters into visible `[hidden text: …]`. */
export function revealHiddenText(text: string): { text: string; hiddenCharacters: number } {
  let hiddenCharacters = 0;
  const revealed = text.replace(tagRun, (run) => {
    let spelled = "";
    for (const character of run) {
      hiddenCharacters += 1;
      const ascii = character.codePointAt(0)! - 0xe0000;
      if (ascii >= 0x20 && ascii <= 0x7e) spelled += String.fromCharCode(ascii);
    }
    return spelled === "" ? "" : `[hidden text: ${spelled}]`;
  });
  return { text: revealed, hiddenCharacters };
}
