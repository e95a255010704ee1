// The jsdom side of screen-words.ts: throws unless the page shows what the words say (its
// heading, status lines, texts and buttons), queried by role and name as a user finds them.
import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import { headingText, type ScreenWords } from './screen-words.ts';

export const button = (name: string) => screen.getByRole('button', { name });
export const statusTexts = () => screen.queryAllByRole('status').map((element) => element.textContent.trim());

/** The texts of the alerts on the page that say something (an empty live region says nothing). */
export const shownAlerts = () =>
  screen
    .queryAllByRole('alert')
    .map((element) => element.textContent.trim())
    .filter((text) => text !== '');

export function checkScreenWords(words: ScreenWords): void {
  const heading = headingText(words);
  if (heading !== null) expect(screen.getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  if (words.status) expect(statusTexts()).toContain(words.status.text);
  for (const text of words.texts ?? []) expect(screen.getByText(text.text)).toBeInTheDocument();
  for (const label of words.enabled ?? []) expect(button(label.text)).toBeEnabled();
  for (const label of words.disabled ?? []) expect(button(label.text)).toBeDisabled();
  for (const label of words.busy ?? []) {
    expect(button(label.text)).toHaveAttribute('aria-busy', 'true');
    expect(button(label.text)).toBeDisabled();
  }
  for (const text of words.noStatus ?? []) expect(statusTexts()).not.toContain(text.text);
  for (const label of words.noButtons ?? []) expect(screen.queryByRole('button', { name: label.text })).not.toBeInTheDocument();
  if (words.image) expect(screen.getByRole('img', { name: words.image.name })).toBeInTheDocument();
}
