"""Example `module:factory` targets for `inductor-prof profile`."""
