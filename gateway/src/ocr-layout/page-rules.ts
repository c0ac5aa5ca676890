/** A straight drawn line on the page: horizontal (`y` its centre, `from`/`to` along x) or vertical (`x`, along y). */
export interface Rule {
  /** The fixed coordinate: y of a horizontal rule, x of a vertical one (pixels, centre of its thickness). */
  at: number;
  from: number;
  to: number;
}

export interface PageRules {
  horizontal: Rule[];
  vertical: Rule[];
}
