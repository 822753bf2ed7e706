// Starts Swagger UI on /api/docs (a static file: the Content-Security-Policy allows no
// inline script). The OpenAPI document's URL comes from the page.
(function () {
  "use strict";
  window.addEventListener("load", function () {
    var root = document.getElementById("swagger-ui");
    window.ui = window.SwaggerUIBundle({
      url: root.getAttribute("data-openapi-url"),
      dom_id: "#swagger-ui",
      layout: "BaseLayout",
      deepLinking: true,
      showExtensions: true,
      showCommonExtensions: true,
      validatorUrl: null,
      presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIBundle.SwaggerUIStandalonePreset]
    });
  });
})();
