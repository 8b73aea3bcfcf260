// Entry of the bundle served at {assets_url}/v1/main.js. The page imports it dynamically and
// stores the export as `window.Service` (contract: Front-end SDK).
import { createService } from "./service";

export const Service = createService(import.meta.url);
export default Service;
