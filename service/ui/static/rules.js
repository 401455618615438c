// The rules page: the document is served ready to read; this keeps the header's API key box working as on the
// other pages (a key entered here is the one the lab and the viewer use).
import { $, bindApiKey } from "./common.js";

bindApiKey($("#api-key"));
