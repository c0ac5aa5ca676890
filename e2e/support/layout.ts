import type { Page, Request } from 'playwright-core';

export const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

/** What a user at this size cannot reach: the page itself scrolling (sideways, or down beside the shell's panes), and action buttons outside the viewport or clipped by their scroll box. */
export async function layoutProblems(page: Page): Promise<string[]> {
  // A string, not a function: the e2e project compiles without the DOM library.
  return page.evaluate(`(() => {
    const problems = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(\`page scrolls sideways: \${root.scrollWidth} > \${root.clientWidth}\`);
    // Only the shell's panes scroll: a page that scrolls too shows a second scroll bar beside main's.
    if (root.scrollHeight > root.clientHeight + 1) problems.push(\`page scrolls down beside the shell's panes: \${root.scrollHeight} > \${root.clientHeight}\`);
    const main = document.querySelector('main');
    if (main && main.scrollWidth > main.clientWidth + 1) problems.push(\`main scrolls sideways: \${main.scrollWidth} > \${main.clientWidth}\`);
    const clippedBy = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (/(auto|scroll|hidden)/.test(style.overflowX)) {
          const a = el.getBoundingClientRect();
          const b = p.getBoundingClientRect();
          if (a.right > b.right + 1 || a.left < b.left - 1) return p;
        }
      }
      return null;
    };
    for (const button of document.querySelectorAll('main button, main a.btn, main [role="button"]')) {
      const box = button.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (button.closest('.visually-hidden')) continue;
      const name = button.getAttribute('aria-label') ?? button.textContent?.trim() ?? '?';
      if (box.right > window.innerWidth + 1) problems.push(\`"\${name}" ends at \${Math.round(box.right)} px, past the \${window.innerWidth} px window\`);
      else if (clippedBy(button)) problems.push(\`"\${name}" is clipped by a scroll box\`);
    }
    for (const label of document.querySelectorAll('.nav-group-label')) {
      const text = label.textContent?.trim() ?? '?';
      const style = getComputedStyle(label);
      const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.6;
      if (label.getBoundingClientRect().height > line * 1.5) problems.push(\`nav heading "\${text}" wraps onto a second line\`);
      else if (label.scrollWidth > label.clientWidth + 1) problems.push(\`nav heading "\${text}" is wider than the sidebar\`);
    }
    return problems;
  })()`) as Promise<string[]>;
}

export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const toggle = page.getByRole('button', { name: `Switch to ${theme} theme` });
  if (await toggle.count()) await toggle.click();
}

/**
 * Runs `action` (a click on an in-app link), then waits until none of the page's requests has been in
 * flight for `quietMs`: the data the page loads after the navigation has arrived. A followed event
 * stream (the request log's live feed) never ends and is not counted. Playwright's `networkidle` load
 * state cannot tell this: it is reached once per document, so it says nothing after a client-side
 * navigation, and never while the document follows a stream (it then waits out its whole timeout).
 * Like that wait, this one gives up after `timeoutMs` and lets the caller check the page as it is.
 */
export async function settledAfter(
  page: Page,
  action: () => Promise<unknown>,
  quietMs = 200,
  timeoutMs = 30_000,
): Promise<void> {
  const inFlight = new Set<Request>();
  let changed = () => {};
  const started = (request: Request) => {
    if ((request.headers().accept ?? '').includes('text/event-stream')) return;
    inFlight.add(request);
    changed();
  };
  const ended = (request: Request) => {
    if (inFlight.delete(request)) changed();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await action();
    await new Promise<void>((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(quiet);
        clearTimeout(deadline);
        resolve();
      };
      const deadline = setTimeout(done, timeoutMs);
      changed = () => {
        clearTimeout(quiet);
        if (inFlight.size === 0) quiet = setTimeout(done, quietMs);
      };
      changed();
    });
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
