// What a select (or a combobox's list) offers, as a user reads it: its options' texts, in order.
import { within } from '@testing-library/react';

export const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);
