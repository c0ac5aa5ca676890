export { CAPABILITIES, type Capability } from '../../wire/capabilities.js';
