import { describe, expect, it } from 'vitest';
import { decideNavigation, decidePermission, isConsoleUrl } from '../../main/url-policy.js';

const gateway = 'http://127.0.0.1:51234';

describe('URL policy', () => {
  it('lets the window move around the console only', () => {
    expect(decideNavigation('http://127.0.0.1:51234/ui/', gateway)).toBe('allow');
    expect(decideNavigation('http://127.0.0.1:51234/ui/playground?model=x#top', gateway)).toBe('allow');
    expect(decideNavigation('http://127.0.0.1:51234/ui', gateway)).toBe('allow');
  });

  it('sends web links, including other gateway pages and other ports, to the system browser', () => {
    expect(decideNavigation('https://docs.example.com/guide', gateway)).toBe('open-external');
    expect(decideNavigation('http://example.org/', gateway)).toBe('open-external');
    expect(decideNavigation('http://127.0.0.1:51234/docs', gateway)).toBe('open-external');
    expect(decideNavigation('http://127.0.0.1:9999/ui/', gateway)).toBe('open-external');
    expect(decideNavigation('http://127.0.0.1:51234/uix', gateway)).toBe('open-external');
  });

  it('refuses everything that is not http(s)', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'mailto:a@b.c',
      'smb://host/share',
      'not a url',
      '',
    ]) {
      expect(decideNavigation(url, gateway), url).toBe('deny');
    }
  });

  it('recognises console pages by origin, not by prefix', () => {
    expect(isConsoleUrl('http://127.0.0.1:51234.evil.com/ui/', gateway)).toBe(false);
    expect(isConsoleUrl('http://127.0.0.1:51234@evil.com/ui/', gateway)).toBe(false);
    expect(isConsoleUrl('https://127.0.0.1:51234/ui/', gateway)).toBe(false);
  });

  it('grants the console the microphone and clipboard writes, and nothing else or to anyone else', () => {
    expect(decidePermission('media', 'http://127.0.0.1:51234/ui/transcription', ['audio'], gateway)).toBe(true);
    expect(decidePermission('clipboard-sanitized-write', 'http://127.0.0.1:51234/ui/keys', undefined, gateway)).toBe(
      true,
    );
    expect(decidePermission('media', 'http://127.0.0.1:51234/ui/', ['audio', 'video'], gateway)).toBe(false);
    expect(decidePermission('media', 'http://127.0.0.1:51234/ui/', [], gateway)).toBe(false);
    expect(decidePermission('geolocation', 'http://127.0.0.1:51234/ui/', undefined, gateway)).toBe(false);
    expect(decidePermission('media', 'http://evil.example/ui/', ['audio'], gateway)).toBe(false);
    expect(decidePermission('media', undefined, ['audio'], gateway)).toBe(false);
  });
});
