// The English texts as an entry of their own. An English page loads this module as a script
// before the app's (api/web.go), so the app finds them when it starts and draws at once, in one
// task, as a Persian page does; fetched by the app instead, they arrive a task later, after the
// server's page has painted, and the whole first draw then blocks input. Switching to English
// inside the app imports this same module.
import en from './en.json';

if (typeof window !== 'undefined') window.kardanTexts = { ...window.kardanTexts, en };

export default en;
