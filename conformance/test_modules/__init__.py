"""`gen tests`: one readable pytest module per op, the modules `conform` runs (conformance's own: they import
its runner, so they are written here, above gen in the layers; `gen tests` reaches this generator through the
entry-point group `gen.commands`)."""
