import sys

from catandsl.cli import main

sys.exit(main())
