// Views and preferences: an operator's saved views of the lists, and their own console choices.
export { preferenceRoutes } from './preferences.ts';
export { viewRoutes } from './views.ts';
export { viewLists } from './lists.ts';
