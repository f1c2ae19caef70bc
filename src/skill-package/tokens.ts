/**
 * A skill's size in tokens, estimated without a model's tokenizer (each vendor's differs): a character
 * of a script written without spaces (Han, kana, Hangul) counts as one token, and every other four
 * characters as one, the rule of thumb Anthropic and OpenAI give for English text. It only has to be
 * stable from night to night and in the right range for the format's guidance (5,000 tokens).
 */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

export function estimateTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  const rest = [...text].length - wide;
  return wide + Math.ceil(rest / 4);
}
