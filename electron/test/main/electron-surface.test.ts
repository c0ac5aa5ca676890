import type { Session, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import type {
  NavigationEventLike,
  SafeStorageLike,
  SessionLike,
  WebContentsLike,
  WebRequestLike,
} from '../../main/electron-surface.js';

// Compile-time checks against Electron's published types: the slices the main-process logic is
// written (and tested) against are what Electron really hands it. A mismatch fails the typecheck.
describe("Electron's own objects satisfy the main process's surfaces", () => {
  it('session, webRequest, webContents and navigation events', () => {
    const session = (real: Session): SessionLike => real;
    const webRequest = (real: Session['webRequest']): WebRequestLike => real;
    const contents = (real: WebContents): WebContentsLike => real;
    const frameEvent = (real: Electron.Event<Electron.WebContentsWillFrameNavigateEventParams>): NavigationEventLike =>
      real;
    const redirectEvent = (real: Electron.Event<Electron.WebContentsWillRedirectEventParams>): NavigationEventLike =>
      real;
    expect(
      [session, webRequest, contents, frameEvent, redirectEvent].every((check) => typeof check === 'function'),
    ).toBe(true);
  });

  it('safeStorage', () => {
    const safeStorage = (real: Electron.SafeStorage): SafeStorageLike => real;
    expect(typeof safeStorage).toBe('function');
  });
});
