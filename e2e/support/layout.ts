import type { Page } from 'playwright-core';

export const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

/** What a user at this size cannot reach: horizontal overflow of the page, and action buttons outside the viewport or clipped by their scroll box. */
export async function layoutProblems(page: Page): Promise<string[]> {
  // A string, not a function: the e2e project compiles without the DOM library.
  return page.evaluate(`(() => {
    const problems = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(\`page scrolls sideways: \${root.scrollWidth} > \${root.clientWidth}\`);
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
