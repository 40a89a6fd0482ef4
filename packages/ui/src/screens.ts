// A remote's screens, declared once: each screen's path, its name in the operators' words and, if
// the side nav lists it, its place there. The remote's descriptor derives the paths it owns and its
// side nav from this table, its routes give each screen its component (keyed by the same names, so
// a screen without a component, or a component without a screen, fails the type check), and the
// standalone bar links every screen that takes no parameter. Plain data: the build reads it.

export interface Screen {
  /** The route, as react-router writes it ('/disputes/:id'). */
  readonly path: string;
  readonly label: string;
  /** Its order in the shell's side nav, which sorts every remote's entries by it; absent: not in the nav. */
  readonly nav?: number;
}
export type Screens = Readonly<Record<string, Screen>>;

/** The descriptor's `paths` (first path segments) and `nav`, from the table. */
export function describeScreens(screens: Screens): { paths: string[]; nav: { label: string; path: string; order: number }[] } {
  const all = Object.values(screens);
  return {
    paths: [...new Set(all.map((screen) => screen.path.split('/')[1]!))],
    nav: all.flatMap((screen) => (screen.nav === undefined ? [] : [{ label: screen.label, path: screen.path, order: screen.nav }])),
  };
}

/** The standalone bar's links: every screen that needs no parameter. */
export const screenLinks = (screens: Screens) =>
  Object.values(screens)
    .filter((screen) => !screen.path.includes(':'))
    .map((screen) => ({ label: screen.label, to: screen.path }));
