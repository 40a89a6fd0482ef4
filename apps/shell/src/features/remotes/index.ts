// What the layout reads of the remote registry: the side nav a role may open, a screen's path by
// its name, and which section changed.
export { changedSection, navigationFor, screenPath } from './remote-registry.ts';
