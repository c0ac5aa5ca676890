import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/**
 * A page whose code cannot be fetched (the gateway was restarted with a newer console, or went away)
 * shows why and a reload button instead of a blank page. Keyed by the route, so another page gets a fresh try.
 */
export class PageLoadBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page">
        <div className="notice notice-error" role="alert">
          <span className="notice-title">This page could not be loaded</span>
          <span>
            {this.state.error.message}. The gateway may have been restarted with a newer console: reloading fetches it.
          </span>
          <div>
            <button type="button" className="btn btn-sm" onClick={() => window.location.reload()}>
              Reload
            </button>
          </div>
        </div>
      </div>
    );
  }
}
