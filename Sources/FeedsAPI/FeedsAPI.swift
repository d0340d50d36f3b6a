// The generated types and server stubs come from openapi.yaml (symlinked here) through the
// OpenAPIGenerator build plugin; a target needs one source file of its own to exist.
