# Runs at the Pico's boot. Copy this file to the Pico's root and arbitre_fw/ to its lib/ folder.
from arbitre_fw.pico import main

main()
