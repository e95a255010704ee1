import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './app';

describe('App shell', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the product name in the header and the login title in the main region', () => {
    render(<App />);

    expect(screen.getByRole('banner')).toHaveTextContent('Affiliate Portal');
    expect(
      within(screen.getByRole('main')).getByRole('heading', { level: 1, name: 'Affiliate Login' }),
    ).toBeInTheDocument();
  });

  it('shows a copyright with the current year in the footer', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2031, 5, 15));

    render(<App />);

    expect(screen.getByRole('contentinfo')).toHaveTextContent(/^© 2031 \S/);
  });
});
