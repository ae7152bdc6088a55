export { createSourceTags, type SourceTagsOptions, type SourceTagsPolicy } from "./create-source-tags.js";
export { createRoleDiscipline } from "./create-role-discipline.js";
export { findMarkers, type MarkerKind, type MarkerMatch } from "./find-markers.js";
export { findForgedMarkers } from "./forgery-check.js";
export { neutraliseMarkers, type NeutralisedText } from "./neutralise-markers.js";
export { screenInjection, type ScreeningFinding, type ScreeningRule } from "./screen-injection.js";
export { untrustedContentSection } from "./untrusted-content-section.js";
export { findExternalBlocks, textOutsideExternalBlocks, wrapExternalContent, type ExternalBlock, type WrappedExternalContent } from "./wrap-external-content.js";
