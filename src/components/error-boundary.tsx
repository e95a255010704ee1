// What a part of the page shows instead of going blank when it fails to render or its code
// fails to load (a lazy chunk after a redeploy or a network drop): what failed, on the error
// line, and a button that loads the page anew. Everything outside the boundary (the header with
// Logout, the tabs) stays. Another `resetKey` (the location) tries again.
import { Component, type ReactNode } from 'react';
import { Alert } from './alert.tsx';

interface ErrorBoundaryProps {
  /** What the boundary holds, as the message names it: 'This page', 'The chart'. */
  what: string;
  resetKey?: string;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: string | undefined;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="load-failure">
        <Alert message={`${this.props.what} could not be shown: ${error.message}`} />
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
