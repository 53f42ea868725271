// Spellings of a name in the other script, offered as aliases in the brand form: answer engines
// write "Ozon" as «Озон» in Russian answers, and «Яндекс» as "Yandex" in English ones. The
// transliteration is cyrillic-to-translit-js (Russian and Ukrainian presets, both directions);
// a result that still mixes scripts ("HубСпот") is not offered. Pure: the form imports it.
import CyrillicToTranslit from "cyrillic-to-translit-js";

const russian = CyrillicToTranslit({ preset: "ru" });
const ukrainian = CyrillicToTranslit({ preset: "uk" });
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;

/** The name in the other script (Latin <-> Cyrillic), minus what is already there. */
export function transliteratedAliases(name: string, existing: string[] = []): string[] {
  const trimmed = name.trim();
  if (!trimmed) return [];
  const cyrillic = CYRILLIC.test(trimmed);
  if (cyrillic === LATIN.test(trimmed)) return []; // neither script, or both already
  const candidates = cyrillic ? [(/[іїєґ]/iu.test(trimmed) ? ukrainian : russian).transform(trimmed)] : [russian.reverse(trimmed)];
  const taken = new Set([trimmed, ...existing].map((n) => n.trim().toLowerCase()));
  const target = cyrillic ? LATIN : CYRILLIC;
  const source = cyrillic ? CYRILLIC : LATIN;
  return [...new Set(candidates.map((c) => c.trim()))].filter((c) => c && target.test(c) && !source.test(c) && !taken.has(c.toLowerCase()));
}
