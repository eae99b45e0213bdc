// The printouts' page (tdhost.web.paper renders it on the host; docs/web.md §9): its Print
// button opens the browser's print dialog, which also saves a PDF.
"use strict";

document.getElementById("print").addEventListener("click", () => window.print());
