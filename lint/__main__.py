from a2alint.cli import main

main(prog_name="a2alint")
