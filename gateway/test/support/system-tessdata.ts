import { execFileSync } from 'node:child_process';

/**
 * The machine's tessdata folder when its tesseract command has the French model, whose bytes the
 * language tests serve as the models they download; undefined otherwise (those tests skip).
 */
export function systemTessdata(): string | undefined {
  try {
    const listed = execFileSync('tesseract', ['--list-langs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const folder = /languages in "([^"]+)"/.exec(listed)?.[1];
    return folder && listed.split('\n').some((line) => line.trim() === 'fra') ? folder : undefined;
  } catch {
    return undefined;
  }
}
