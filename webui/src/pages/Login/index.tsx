export { default } from '../NotFound';
